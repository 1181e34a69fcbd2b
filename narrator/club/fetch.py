"""``narrator club fetch --site URL --club-id N -o CLUBDIR``: the club's setup from its rating
site, once, at home — then every evening and tournament starts from the folder offline.

What is asked, and which fields of the answers are read (MafiaRatings' ``api/get``):

- ``clubs.php?club_id=N``: ``clubs[0].name`` and ``clubs[0].scoring_id``, the club's system;
- ``club_rules.php?club_id=N&view=code``: ``rules[0].rules``, the thirteen-digit code of the
  club's own rules (the first of the list: «The first rules in the array are default rules
  used in the club.»), read by :func:`narrator.engine.catalogue.parse_code` after the site's
  own upgrade of older codes (include/rules.php, ``upgrade_rules_code``);
- ``scorings.php?club_id=N&page_size=0``: ``scorings[].id``, ``.name`` and
  ``.versions[].version`` / ``.rules`` — every system the club may use (its own and the
  site's), every version;
- ``players.php?club_id=N&page_size=0``: ``players[].id`` and ``.name`` — everyone who has
  played a game of the club (``page_size=0``: «returns players in one page»).

An answer with ``error`` is the site's refusal, said in one line. The folder gets
``club.toml`` (the rules code and ``[scoring]``: ``system = "fiim@N"`` when the club's
system is FIIM at a version narrator has built in, else ``file`` and ``name``),
``scoring/ID@VERSION.json`` (each system's JSON as the site holds it) and ``roster.csv``
(``nickname,mafiaratings_id``). Run again, it rewrites them and says what changed; lines the
club added between the two marked lines of ``club.toml`` are kept.
"""

from __future__ import annotations

import csv
import io
import json
import sys
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from narrator.arguments import CLUB_FILE, ROSTER_FILE, ClubFetchArgs
from narrator.engine.catalogue import CodeError, parse_code
from narrator.errors import NarratorError
from narrator.outputs import private_folder, replace_whole
from narrator.reading import BadJSON, loads, read_text
from narrator.scoring.fiim import VERSIONS
from narrator.scoring.system import SYSTEMS, from_json

#: the site's id of FIIM (the systems narrator has built in)
FIIM_ID = 19
#: a club's biggest answer (thousands of players) is far below this
MAX_ANSWER = 16 * 1024 * 1024
TIMEOUT = 30.0
#: the lines of club.toml between which the club's own lines are kept
KEEP_BELOW = "# -- the club's own options below this line are kept by the next fetch --"
KEEP_ABOVE = "# -- the site's scoring system, written by the fetch --"

#: GET url → the answer's bytes (HTTPError / URLError / OSError as urllib raises them)
Get = Callable[[str], bytes]


def _urlopen(url: str) -> bytes:
    request = urllib.request.Request(url, headers={"Accept": "application/json"})
    with urllib.request.urlopen(request, timeout=TIMEOUT) as answer:
        data: bytes = answer.read(MAX_ANSWER + 1)
    if len(data) > MAX_ANSWER:
        raise OSError(f"an answer of more than {MAX_ANSWER:,} bytes")
    return data


@dataclass(frozen=True)
class Scoring:
    """One of the site's systems at one version: its id, name, version and JSON."""

    id: int
    name: str
    version: int
    json: Any

    @property
    def file(self) -> str:
        return f"scoring/{self.id}@{self.version}.json"


@dataclass(frozen=True)
class ClubSetup:
    """What the site holds of the club."""

    site: str
    club_id: int
    name: str
    rules: str
    scoring_id: int
    scorings: tuple[Scoring, ...]
    players: tuple[tuple[str, int], ...] = field(default=())

    @property
    def scoring(self) -> Scoring | None:
        """The club's system at its latest version (None: the site names none)."""
        own = [s for s in self.scorings if s.id == self.scoring_id]
        return max(own, key=lambda s: s.version) if own else None


class Site:
    """The rating site at ``base`` (``https://mafiaratings.com``), asked through ``get``."""

    def __init__(self, base: str, get: Get = _urlopen) -> None:
        parsed = urllib.parse.urlsplit(base)
        if parsed.scheme not in ("http", "https") or not parsed.netloc:
            raise NarratorError(f"--site: expected the site's address, e.g. "
                                f"https://mafiaratings.com, got {base[:80]!r}")
        self.base = base.rstrip("/")
        self.get = get

    def ask(self, page: str, **params: object) -> dict[str, Any]:
        """The JSON object ``api/get/PAGE`` answers; one line naming the page if it fails."""
        url = f"{self.base}/api/get/{page}?{urllib.parse.urlencode(params)}"
        where = f"{self.base}: {page}"
        try:
            data = self.get(url)
        except urllib.error.HTTPError as e:
            raise NarratorError(f"{where}: HTTP {e.code} ({str(e.reason)[:80]})") from None
        except (urllib.error.URLError, OSError) as e:
            reason = getattr(e, "reason", None) or e
            raise NarratorError(f"{where}: the site cannot be reached ({str(reason)[:80]}); "
                                "fetching needs the network once") from None
        try:
            body = loads(data.decode("utf-8"))
        except (BadJSON, UnicodeDecodeError) as e:
            raise NarratorError(f"{where}: the answer is not the site's JSON ({str(e)[:80]})") \
                from None
        if not isinstance(body, dict):
            raise NarratorError(f"{where}: the answer is not a JSON object")
        if "error" in body:
            raise NarratorError(f"{where}: the site says: {str(body['error'])[:160]}")
        return body


def _field(obj: object, key: str, kind: type, where: str) -> Any:
    value = obj.get(key) if isinstance(obj, Mapping) else None
    if not isinstance(value, kind) or isinstance(value, bool):
        raise NarratorError(f"{where}.{key}: expected {kind.__name__}, got {str(value)[:40]!r}")
    return value


def fetch_setup(site: Site, club_id: int) -> ClubSetup:
    """Everything the folder is written from, asked in four requests."""
    clubs = site.ask("clubs.php", club_id=club_id).get("clubs")
    if not isinstance(clubs, list) or not clubs:
        raise NarratorError(f"{site.base}: clubs.php: the site has no club {club_id}")
    where = f"{site.base}: clubs.php: clubs[0]"
    name = _field(clubs[0], "name", str, where)
    scoring_id = _field(clubs[0], "scoring_id", int, where)
    rules = site.ask("club_rules.php", club_id=club_id, view="code").get("rules")
    if not isinstance(rules, list) or not rules:
        raise NarratorError(f"{site.base}: club_rules.php: no rules for club {club_id}")
    code = upgrade_code(_field(rules[0], "rules", str, f"{site.base}: club_rules.php: rules[0]"))
    try:
        parse_code(code)
    except CodeError as e:
        raise NarratorError(f"{site.base}: club_rules.php: {e}") from None
    return ClubSetup(site.base, club_id, name, code, scoring_id,
                     _scorings(site, club_id), _players(site, club_id))


def upgrade_code(code: str) -> str:
    """An older code in today's thirteen digits, as include/rules.php's upgrade_rules_code
    reads it: a 12-digit code gets two zeros before its last digit, a 14-digit one loses
    its last (the 29-digit codes of the site's first years are refused as not read)."""
    if len(code) == 12:
        return code[:11] + "00" + code[11:]
    if len(code) == 14:
        return code[:-1]
    return code


def _scorings(site: Site, club_id: int) -> tuple[Scoring, ...]:
    body = site.ask("scorings.php", club_id=club_id, page_size=0)
    found = body.get("scorings")
    if not isinstance(found, list):
        raise NarratorError(f"{site.base}: scorings.php: expected a list of scorings")
    out: list[Scoring] = []
    for i, s in enumerate(found):
        where = f"{site.base}: scorings.php: scorings[{i}]"
        sid, name = _field(s, "id", int, where), _field(s, "name", str, where)
        for j, v in enumerate(_field(s, "versions", list, where)):
            at = f"{where}.versions[{j}]"
            version, rules = _field(v, "version", int, at), _field(v, "rules", dict, at)
            from_json(rules, at + ".rules")  # a system narrator can score, or one line
            out.append(Scoring(sid, name, version, rules))
    return tuple(out)


def _players(site: Site, club_id: int) -> tuple[tuple[str, int], ...]:
    found = site.ask("players.php", club_id=club_id, page_size=0).get("players")
    if not isinstance(found, list):
        raise NarratorError(f"{site.base}: players.php: expected a list of players")
    out: dict[int, str] = {}
    for i, p in enumerate(found):
        where = f"{site.base}: players.php: players[{i}]"
        out[_field(p, "id", int, where)] = " ".join(_field(p, "name", str, where).split())
    return tuple(sorted(((name, uid) for uid, name in out.items()), key=lambda p: p[0].casefold()))


# -- the folder --------------------------------------------------------------------------------------


def _toml_text(value: str) -> str:
    return json.dumps(value, ensure_ascii=False)  # a TOML basic string is JSON's


def club_toml(setup: ClubSetup, kept: str) -> str:
    """The club's file: the fetched rules, the club's own ``kept`` lines between the marked
    ones, then the fetched ``[scoring]`` (a table: whatever follows it is its)."""
    lines = [f"# The club «{setup.name}» (id {setup.club_id}) as {setup.site} keeps it,",
             "# written by narrator club fetch: run it again to update this folder.",
             f"rules = {_toml_text(setup.rules)}", "", KEEP_BELOW]
    if kept.strip():
        lines.append(kept.strip("\n"))
    lines.append(KEEP_ABOVE)
    scoring = setup.scoring
    if scoring is not None:
        lines.append("[scoring]")
        if scoring.id == FIIM_ID and scoring.version in VERSIONS and \
                from_json(scoring.json, "site").groups == \
                SYSTEMS[f"fiim@{scoring.version}"].groups:
            lines.append(f"system = \"fiim@{scoring.version}\"  # «{scoring.name}», "
                         f"version {scoring.version}")
        else:
            lines.append(f"file = {_toml_text(scoring.file)}")
            lines.append(f"name = {_toml_text(f'{scoring.name}@{scoring.version}')}")
    return "\n".join(lines) + "\n"


def roster_csv(setup: ClubSetup) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["nickname", "mafiaratings_id"])
    writer.writerows(setup.players)
    return out.getvalue()


def _old_toml(path: Path) -> str | None:
    """An earlier fetch's club file (None: none, or none that reads), bounded and a regular
    file (a FIFO there would wait for ever)."""
    if not path.is_file():
        return None
    try:
        return read_text(path, "the club's file", limit=MAX_ANSWER)
    except NarratorError:
        return None


def _kept_lines(text: str | None) -> str:
    """The club's own lines of an earlier file, between the marked ones."""
    if text is None or KEEP_BELOW not in text:
        return ""
    return text.split(KEEP_BELOW, 1)[1].split(KEEP_ABOVE, 1)[0]


def _roster_of(path: Path) -> dict[int, str]:
    try:
        rows = list(csv.reader(io.StringIO(read_text(path, "the roster", limit=MAX_ANSWER))))
    except (NarratorError, csv.Error):
        return {}
    return {int(r[1]): r[0] for r in rows[1:] if len(r) >= 2 and r[1].isdigit()}


def changes(folder: Path, setup: ClubSetup, toml: str, text: str | None) -> list[str]:
    """What the new folder changes of the old one (its club file's ``text``), a line each
    (none: a first fetch)."""
    if text is None:
        return []
    out: list[str] = []
    before = text.split(KEEP_BELOW)[0] + text.split(KEEP_ABOVE)[-1]  # (the fetched parts)
    for key in ("rules = ", "system = ", "file = "):
        was = next((x for x in before.splitlines() if x.startswith(key)), None)
        now = next((x for x in toml.splitlines() if x.startswith(key)), None)
        if was != now:
            out.append(f"{key.strip(' =')}: {was or '—'} → {now or '—'}")
    old, new = _roster_of(folder / ROSTER_FILE), dict((u, n) for n, u in setup.players)
    added = [new[u] for u in new if u not in old]
    gone = [old[u] for u in old if u not in new]
    renamed = [f"{old[u]} → {new[u]}" for u in new if u in old and old[u] != new[u]]
    for what, names in (("new players", added), ("players no longer listed", gone),
                        ("renamed", renamed)):
        if names:
            shown = ", ".join(names[:8]) + (f" and {len(names) - 8} more" if len(names) > 8
                                             else "")
            out.append(f"{what}: {shown}")
    fresh = [s.file for s in setup.scorings if not (folder / s.file).is_file()]
    if fresh:
        out.append(f"new scoring versions: {', '.join(fresh[:8])}")
    return out


def write_folder(folder: Path, setup: ClubSetup) -> list[str]:
    """The folder written (owner-only); what changed of an earlier fetch, a line each."""
    old = _old_toml(folder / CLUB_FILE)
    toml = club_toml(setup, _kept_lines(old))
    said = changes(folder, setup, toml, old)
    for made in (folder, folder / "scoring"):  # the owner's only: the roster is his club's
        try:
            private_folder(made, parents=True, exist_ok=True)
        except OSError as e:
            raise NarratorError(f"{made}: cannot make the club's folder ({e.strerror})") \
                from None
    for s in setup.scorings:
        replace_whole(folder / s.file, json.dumps(s.json, ensure_ascii=False, indent=1) + "\n",
                      "the scoring system", mode=0o600)
    replace_whole(folder / ROSTER_FILE, roster_csv(setup), "the club's roster", mode=0o600)
    replace_whole(folder / CLUB_FILE, toml, "the club's file", mode=0o600)
    return said


def run(args: ClubFetchArgs) -> int:
    """``narrator club fetch``."""
    if args.club_id < 1:
        raise NarratorError(f"--club-id: expected a number from 1, got {args.club_id}")
    folder = Path(args.out)
    if folder.exists() and not folder.is_dir():
        raise NarratorError(f"{folder}: not a folder")
    again = (folder / CLUB_FILE).is_file()
    if folder.is_dir() and any(folder.iterdir()) and not again:
        raise NarratorError(f"{folder} is not empty and holds no {CLUB_FILE}: pass a new "
                            "folder, or the club's folder to update")
    setup = fetch_setup(Site(args.site), args.club_id)
    said = write_folder(folder, setup)
    scoring = setup.scoring
    print(f"narrator: the club «{setup.name}»: rules {setup.rules}, "
          f"{len(setup.players)} players with their ids, "
          + (f"scored by «{scoring.name}» version {scoring.version}" if scoring else
             "no scoring system on the site (the flat [points] table scores)")
          + f" — in {folder}", file=sys.stderr)
    if again:
        for line in said or ["nothing changed since the last fetch"]:
            print(f"narrator: {line}", file=sys.stderr)
    return 0
