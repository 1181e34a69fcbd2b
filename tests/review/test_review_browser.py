"""The judge's page in Chromium, opened from its folder: a refused phrase's slice and a vote's
play to their end, the filters hide what they should, a time seeks the whole recording.

With ``NARRATOR_SCREENSHOTS=DIR`` the test keeps the pictures of docs/review.md."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from tests.console.browser import needs_chromium
from tests.review.recorded import NO, Recorded

_PLAY = """async (row) => {
  const a = document.querySelector('#' + row + ' audio');
  await a.play();
  await new Promise(done => a.addEventListener('ended', done, {once: true}));
  return [a.duration, a.currentTime, parseFloat(a.dataset.seconds)];
}"""


def _row(page: Any, kind: str, text: str) -> str:
    """The id of the first row of ``kind`` whose text holds ``text``."""
    row = page.locator(f'#timeline tr[data-kind="{kind}"]', has_text=text).first
    return str(row.get_attribute("id"))


@needs_chromium
def test_the_page_plays_a_refused_phrase_and_a_vote(recorded: Recorded, review_of: Any,
                                                    browser_context: Any) -> None:
    out = review_of(recorded.folder, "--before", "1", "--after", "1.5")  # played in real time
    page = browser_context.new_page()
    page.set_viewport_size({"width": 1200, "height": 900})
    page.goto((out / "index.html").as_uri())
    refused = _row(page, "heard", NO)
    assert "отказ" in (page.locator(f"#{refused}").text_content() or "")
    vote = _row(page, "hand", "за 5")
    for row in (refused, vote):
        duration, reached, seconds = page.evaluate(_PLAY, row)
        assert abs(duration - seconds) < 0.05 and reached >= duration - 0.05 and seconds == 2.5
    # the link to an entry: the page opens at it
    page.goto(f"{(out / 'index.html').as_uri()}#{vote}")
    assert page.evaluate("location.hash") == f"#{vote}"
    assert page.locator(":target").get_attribute("id") == vote

    rows = page.locator("#timeline tbody tr")
    total = rows.count()
    page.select_option("#kind", "hand")
    assert page.locator("#timeline tbody tr:visible").count() == 2
    page.select_option("#kind", "")
    page.select_option("#seat", "7")
    shown = page.locator("#timeline tbody tr:visible")
    seats = [shown.nth(i).get_attribute("data-seats") or "" for i in range(shown.count())]
    assert seats and all(" 7 " in s for s in seats) and len(seats) < total
    assert page.locator("#shown").text_content() == f"{len(seats)} / {total}"
    shots = os.environ.get("NARRATOR_SCREENSHOTS")
    if shots:
        page.screenshot(path=str(Path(shots) / "review-seat.png"))
    page.select_option("#seat", "")

    # a time plays the whole recording from there
    at = page.locator(f"#{refused} button.at")
    at.click()
    page.wait_for_function("document.getElementById('whole').currentTime > "
                           f"{float(at.get_attribute('data-at') or 0) + 0.2}")
    page.evaluate("document.getElementById('whole').pause()")
    if shots:
        page.goto(f"{(out / 'index.html').as_uri()}#{refused}")
        page.screenshot(path=str(Path(shots) / "review-page.png"), full_page=False)
