"""A tournament's commands: its seating plan (``narrator tournament plan``)."""
