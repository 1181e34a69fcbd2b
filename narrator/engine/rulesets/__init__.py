"""The rulesets besides crime-time, one module each; importing this package registers them.

Each is a subclass of :class:`~narrator.engine.rules.Rules` (or of another ruleset) decorated with
:func:`~narrator.engine.rules.register`; :func:`~narrator.engine.rules.find_rules` finds it by
name. Clause numbers in a ruleset's comments are crime-time's; its own text is quoted.
"""

from narrator.engine.rulesets.amateur import Amateur
from narrator.engine.rulesets.professional import Professional
from narrator.engine.rulesets.vrn import Vrn
from narrator.engine.rulesets.vrn_closed import VrnClosed

__all__ = ["Amateur", "Professional", "Vrn", "VrnClosed"]
