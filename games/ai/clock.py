"""A monotonic clock the compiled kernels can read, so searches stop on time, not on a
guessed node count.

``monotonic_ns()`` compiles to a direct call of libc's ``clock_gettime(CLOCK_MONOTONIC)``:
no GIL, about 25 ns, and (unlike a ctypes pointer) it keeps numba's on-disk cache usable.
It reads the same clock as Python's ``time.monotonic_ns()``, so a deadline computed in
Python can be checked inside a kernel.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import cast

from llvmlite import ir
from numba import types
from numba.core import cgutils
from numba.core.extending import intrinsic

CLOCK_MONOTONIC = 1  # Linux and the BSDs agree on this value
# Kernels read the clock once every CHECK_EVERY nodes (a power of two minus one as a mask).
CHECK_MASK = 1023


@intrinsic
def _monotonic_ns(typingctx):  # type: ignore[no-untyped-def]
    """Nanoseconds on the monotonic clock (for compiled code; Python uses ``deadline_ns``)."""

    def codegen(context, builder, signature, args):  # type: ignore[no-untyped-def]
        i32 = ir.IntType(32)
        i64 = ir.IntType(64)
        fnty = ir.FunctionType(i32, [i32, i64.as_pointer()])
        fn = cgutils.get_or_insert_function(builder.module, fnty, "clock_gettime")  # type: ignore[no-untyped-call]
        # struct timespec {time_t; long} is two 64-bit words on LP64.
        timespec = cgutils.alloca_once(builder, i64, size=2)  # type: ignore[no-untyped-call]
        builder.call(fn, [i32(CLOCK_MONOTONIC), timespec])
        seconds = builder.load(timespec)
        nanos = builder.load(builder.gep(timespec, [i32(1)]))
        return builder.add(builder.mul(seconds, i64(1_000_000_000)), nanos)

    return types.int64(), codegen


# The intrinsic takes numba's typing context; compiled callers call it with no arguments.
monotonic_ns = cast(Callable[[], int], _monotonic_ns)


def deadline_ns(seconds: float) -> int:
    """The monotonic time, in nanoseconds, ``seconds`` from now."""
    return time.monotonic_ns() + int(seconds * 1e9)
