"""The console's timing windows move a step's end through the host, never through the
scheduler's keys of the host's own timer. (Its rooms' sizes: tests/test_rooms.py.)"""

from __future__ import annotations

import re
from pathlib import Path

CONSOLE = Path(__file__).resolve().parents[2] / "narrator" / "console"


def test_no_console_module_touches_the_hosts_timer_keys() -> None:
    # the host's timer is the host's: the console asks it to end a step (Host.end_step_at)
    keyed = {p.name for p in CONSOLE.glob("*.py")
             if re.search(r"""["']timer(-warning|-tick)?["']""", p.read_text(encoding="utf-8"))}
    assert keyed == set()
