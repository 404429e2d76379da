"""Writes the game page's sounds (static/sounds/*.wav): short tones, 8 kHz, 8-bit mono,
a few hundred bytes each. Run again after changing a recipe: python scripts/make_sounds.py"""

from __future__ import annotations

import math
import wave
from pathlib import Path

RATE = 8000
OUT = Path(__file__).resolve().parents[1] / "static" / "sounds"

# Each sound: notes of (frequency in Hz, seconds, loudness 0..1), played one after another.
RECIPES: dict[str, list[tuple[float, float, float]]] = {
    "move": [(660, 0.05, 0.5)],  # a piece set down: one short tick
    "win": [(523, 0.09, 0.5), (659, 0.09, 0.5), (784, 0.16, 0.55)],  # a line made: rising
    "end": [(392, 0.12, 0.45), (330, 0.18, 0.4)],  # the game is over: falling
    "start": [(440, 0.07, 0.4), (587, 0.1, 0.45)],  # the game begins
    "low": [(880, 0.06, 0.45), (0, 0.05, 0), (880, 0.06, 0.45)],  # low time: two beeps
    "chat": [(988, 0.04, 0.3)],  # a chat line: a soft high tick
}


def samples(notes: list[tuple[float, float, float]]) -> bytes:
    out = bytearray()
    for frequency, seconds, loudness in notes:
        count = int(RATE * seconds)
        for i in range(count):
            # A quick fade in and out: no click at either end.
            envelope = min(1.0, i / 40, (count - i) / 80)
            value = loudness * envelope * math.sin(2 * math.pi * frequency * i / RATE)
            out.append(int(128 + 127 * value))
    return bytes(out)


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    for name, notes in RECIPES.items():
        with wave.open(str(OUT / f"{name}.wav"), "wb") as file:
            file.setnchannels(1)
            file.setsampwidth(1)
            file.setframerate(RATE)
            file.writeframes(samples(notes))


if __name__ == "__main__":
    main()
