"""The judge's page: the timeline as one HTML file that needs no network.

Every text on it is escaped here (nicknames and phrases heard are the table's input), and
isolated: each in a ``<bdi>`` of its own, its bidirectional controls taken out (a nickname's
U+202E would show the rest of its cell backwards); the
page's script only shows and hides rows, and seeks and plays the audio beside it. A session's
page plays each moment's slice (``slices/…wav``, beside the page) and the whole recording
(``mic.wav``), seekable from each entry's time.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from html import escape

from narrator.bidi import bdi, neutral
from narrator.engine import Role
from narrator.review.timeline import KINDS, Entry

BANNER = "Страница судьи: на ней все карты — не показывайте игрокам"


@dataclass(frozen=True)
class Heading:
    """What the page says of the game above its timeline."""

    title: str
    rules: str
    seats: int
    names: Mapping[int, str]
    roles: Mapping[int, Role]
    #: the whole recording beside the page (None: a journal, no audio)
    mic: str | None = None
    #: a word on what the record leaves out (a resumed session's actions before it)
    note: str = ""


def clock(seconds: float) -> str:
    """``m:ss.s`` (the transcript's clock)."""
    minutes, rest = divmod(max(0.0, seconds), 60.0)
    return f"{int(minutes)}:{rest:04.1f}"


def _row(entry: Entry, origin: float, slices: Mapping[int, tuple[str, float, float]]) -> str:
    at = entry.t - origin
    seats = " ".join(map(str, entry.seats))
    audio = ""
    if entry.n in slices:
        src, start, seconds = slices[entry.n]
        audio = (f'<audio controls preload="none" src="{escape(src)}" '
                 f'data-start="{start:.6f}" data-seconds="{seconds:.6f}"></audio>')
    return (f'<tr id="e-{entry.n}" class="k-{entry.kind}" data-kind="{entry.kind}" '
            f'data-seats=" {seats} "><td><a href="#e-{entry.n}">{entry.n}</a></td>'
            f'<td><button class="at" data-at="{at:.6f}">{clock(at)}</button></td>'
            f"<td>{entry.kind}</td><td>{escape(seats)}</td><td>{bdi(entry.text)}</td>"
            f"<td>{bdi(entry.outcome)}</td><td>{audio}</td></tr>")


def _cards(head: Heading) -> str:
    cells = "".join(f"<tr><td>{seat}</td><td>{bdi(head.names.get(seat, ''))}</td>"
                    f"<td>{escape(head.roles.get(seat, ''))}</td></tr>"
                    for seat in range(1, head.seats + 1))
    return (f'<table id="cards"><thead><tr><th>seat</th><th>nickname</th><th>card</th></tr>'
            f"</thead><tbody>{cells}</tbody></table>")


def _filters(head: Heading, kinds: Sequence[str]) -> str:
    # (an option holds text only: the name's controls out, then an isolate around it)
    seats = "".join(f'<option value="{s}">{s} \u2068{escape(neutral(head.names.get(s, "")))}'
                    f'\u2069</option>'
                    for s in range(1, head.seats + 1))
    kind = "".join(f'<option value="{k}">{k}</option>' for k in kinds)
    return (f'<p id="filters"><label>seat <select id="seat"><option value="">all</option>'
            f'{seats}</select></label> <label>kind <select id="kind"><option value="">all'
            f'</option>{kind}</select></label> <span id="shown"></span></p>')


_STYLE = """
body{font:15px/1.4 system-ui,sans-serif;margin:1em;color:#222}
#banner{background:#b00020;color:#fff;padding:.6em 1em;font-weight:bold;font-size:1.1em}
table{border-collapse:collapse}td,th{padding:.2em .5em;border-bottom:1px solid #ddd;
vertical-align:middle;text-align:left}#timeline tr:target{background:#fff3b0}
.k-refused td,.k-removal td{color:#b00020}.k-said td:nth-child(5){color:#555}
.k-heard td:nth-child(5){font-weight:bold}button.at{font:inherit;cursor:pointer}
audio{height:2em;width:16em}#whole{width:100%;max-width:60em}td,th,option{unicode-bidi:isolate}
"""

_SCRIPT = """
(function(){
  const seat=document.getElementById('seat'),kind=document.getElementById('kind');
  const rows=Array.from(document.querySelectorAll('#timeline tbody tr'));
  const shown=document.getElementById('shown'),whole=document.getElementById('whole');
  function filter(){
    let n=0;
    for(const r of rows){
      const ok=(!seat.value||r.dataset.seats.includes(' '+seat.value+' '))&&
               (!kind.value||r.dataset.kind===kind.value);
      r.hidden=!ok; if(ok) n++;
    }
    shown.textContent=n+' / '+rows.length;
  }
  seat.addEventListener('change',filter); kind.addEventListener('change',filter); filter();
  for(const b of document.querySelectorAll('button.at')){
    b.addEventListener('click',function(){
      if(!whole) return;
      whole.currentTime=parseFloat(b.dataset.at); whole.play();
    });
  }
})();
"""


def render(head: Heading, entries: Sequence[Entry], origin: float,
           slices: Mapping[int, tuple[str, float, float]]) -> str:
    """The page's HTML: ``slices`` gives an entry's slice (its file, its start in the
    recording and its length in seconds)."""
    kinds = [k for k in KINDS if any(e.kind == k for e in entries)]
    rows = "\n".join(_row(e, origin, slices) for e in entries)
    whole = (f'<p>The whole recording: <audio id="whole" controls preload="metadata" '
             f'src="{escape(head.mic)}"></audio></p>' if head.mic else "")
    return f"""<!DOCTYPE html>
<html lang="ru"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{escape(neutral(head.title))}</title><style>{_STYLE}</style></head><body>
<p id="banner">{BANNER}</p>
<h1>{bdi(head.title)}</h1>
<p>{escape(head.rules)}, {head.seats} seats; {len(entries)} entries. The times count from the
start of the record; a time plays the whole recording from there. {escape(head.note)}</p>
{_cards(head)}
{whole}
{_filters(head, kinds)}
<table id="timeline"><thead><tr><th>#</th><th>time</th><th>kind</th><th>seats</th>
<th>what</th><th>became</th><th>heard</th></tr></thead><tbody>
{rows}
</tbody></table>
<script>{_SCRIPT}</script>
</body></html>
"""
