"""One game at a table: the one way a mode puts it together (:mod:`narrator.table.session`)."""
