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

from narrator import words as vocab
from narrator.bidi import bdi, neutral
from narrator.engine import Role
from narrator.review.notes import page_text
from narrator.review.timeline import KINDS, Entry

BANNER = "Страница судьи: на ней все карты — не показывайте игрокам"
BANNER_UK = "Сторінка судді: на ній усі карти — не показуйте гравцям"


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
    #: the table's language: the page's words
    lang: str = "ru"


def clock(seconds: float) -> str:
    """``m:ss.s`` (the transcript's clock)."""
    minutes, rest = divmod(max(0.0, seconds), 60.0)
    return f"{int(minutes)}:{rest:04.1f}"


def _row(entry: Entry, origin: float, slices: Mapping[int, tuple[str, float, float]],
         lang: str = "ru") -> str:
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
            f"<td>{escape(vocab.word('kind', entry.kind, lang))}</td><td>{escape(seats)}</td>"
            f"<td>{bdi(entry.text)}</td>"
            f"<td>{bdi(entry.outcome)}</td><td>{audio}</td></tr>")


def _cards(head: Heading) -> str:
    lang = head.lang
    cells = "".join(f"<tr><td>{seat}</td><td>{bdi(head.names.get(seat, ''))}</td>"
                    f"<td>{escape(vocab.card(head.roles.get(seat, ''), lang))}</td></tr>"
                    for seat in range(1, head.seats + 1))
    return (f'<table id="cards"><thead><tr><th>{page_text("h_seat", lang)}</th>'
            f'<th>{page_text("h_nickname", lang)}</th><th>{page_text("h_card", lang)}</th>'
            f"</tr></thead><tbody>{cells}</tbody></table>")


def _filters(head: Heading, kinds: Sequence[str]) -> str:
    # (an option holds text only: the name's controls out, then an isolate around it)
    seats = "".join(f'<option value="{s}">{s} \u2068{escape(neutral(head.names.get(s, "")))}'
                    f'\u2069</option>'
                    for s in range(1, head.seats + 1))
    lang = head.lang
    kind = "".join(f'<option value="{k}">{escape(vocab.word("kind", k, lang))}</option>'
                   for k in kinds)
    every = page_text("f_all", lang)
    return (f'<p id="filters"><label>{page_text("f_seat", lang)} <select id="seat">'
            f'<option value="">{every}</option>{seats}</select></label> '
            f'<label>{page_text("f_kind", lang)} <select id="kind"><option value="">{every}'
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
    lang = head.lang
    rows = "\n".join(_row(e, origin, slices, lang) for e in entries)
    whole = (f'<p>{page_text("whole", lang)} <audio id="whole" controls preload="metadata" '
             f'src="{escape(head.mic)}"></audio></p>' if head.mic else "")
    about = page_text("about", lang, rules=escape(vocab.word("rules", head.rules, lang)),
                      seats=head.seats, entries=len(entries))
    cols = "".join(f"<th>{page_text(k, lang)}</th>" for k in
                   ("t_n", "t_time", "t_kind", "t_seats", "t_what", "t_became", "t_heard"))
    return f"""<!DOCTYPE html>
<html lang="{"uk" if lang == "uk" else "ru"}"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{escape(neutral(head.title))}</title><style>{_STYLE}</style></head><body>
<p id="banner">{BANNER_UK if lang == "uk" else BANNER}</p>
<h1>{bdi(head.title)}</h1>
<p>{about} {escape(head.note)}</p>
{_cards(head)}
{whole}
{_filters(head, kinds)}
<table id="timeline"><thead><tr>{cols}</tr></thead><tbody>
{rows}
</tbody></table>
<script>{_SCRIPT}</script>
</body></html>
"""
