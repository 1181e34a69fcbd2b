"""Finding the sound card, with one-line errors when there is none.

PortAudio (behind sounddevice) raises ``OSError`` at import when ``libportaudio2`` is missing and
``PortAudioError`` when there is no device; both become a :class:`NarratorError`.
"""

from __future__ import annotations

from typing import Any

from narrator.errors import NarratorError


def import_sounddevice() -> Any:
    """``import sounddevice``, or NarratorError if PortAudio is missing."""
    try:
        import sounddevice
    except OSError as e:
        raise NarratorError(
            f"no audio support: PortAudio is missing (apt-get install libportaudio2): {e}"
        ) from e
    return sounddevice


def _first_line(e: BaseException) -> str:
    text = str(e).strip().splitlines()
    return text[0] if text else type(e).__name__


class NoDevice(NarratorError):
    """There is no sound card of the ``kind`` asked for ("input" or "output"): a caller with
    another way (a WAV file instead of the speaker) offers it."""

    def __init__(self, message: str, kind: str) -> None:
        super().__init__(message)
        self.kind = kind


def output_device(device: int | str | None = None) -> dict[str, Any]:
    """The output device that would be used (default when None); NarratorError if none."""
    return _device(device, "output")


def input_device(device: int | str | None = None) -> dict[str, Any]:
    """The input device (microphone) that would be used; NarratorError if none."""
    return _device(device, "input")


def _device(device: int | str | None, kind: str) -> dict[str, Any]:
    sd = import_sounddevice()
    try:
        info: dict[str, Any] = dict(sd.query_devices(device, kind=kind))
    except Exception as e:  # PortAudioError or ValueError: no such device
        raise NoDevice(f"no audio {kind} device: {_first_line(e)}", kind) from e
    if int(info.get(f"max_{kind}_channels", 0)) < 1:
        raise NoDevice(f"no audio {kind} device: {info.get('name', device)} has no {kind}", kind)
    return info
