"""Ctrl-C during the module's long calls: KeyboardInterrupt at once, not when the devices are done.

A timer thread sends SIGINT to the process while the main thread waits in xme.estimate, xme.compare
or an Estimator. The interrupted work is measured against the time it would have taken uncut,
calibrated on the same frames at a smaller range (the reference's full search is linear in the
candidates). Run by CTest (`ctest -R python`), or from the build tree:
    PYTHONPATH=build/ci/python python3 python/tests/test_interrupts.py
"""
import os
import signal
import threading
import time
import unittest

from support import numpy, rng, xme

SIGNAL_AFTER = 0.3  # seconds into the call
ALLOWED = 0.6  # seconds after the signal for KeyboardInterrupt to arrive (checks run every 50 ms)
LONG = 4.0  # seconds the uncut call should take


def candidates(search_range):
    return (2 * search_range + 1) ** 2


def interrupt_after(seconds):
    timer = threading.Timer(seconds, lambda: os.kill(os.getpid(), signal.SIGINT))
    timer.start()
    return timer


class Interrupts(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        generator = rng("interrupts")
        size = 256
        cls.reference = generator.integers(0, 256, size=(size, size), dtype=numpy.uint8)
        shift = [int(s) for s in generator.integers(-6, 7, size=2)]
        cls.current = numpy.roll(cls.reference, shift, axis=(0, 1))
        print(f"frames {size}x{size}, shifted by {shift}", flush=True)
        # The reference device's seconds per candidate on these frames, from a call at range 12.
        started = time.monotonic()
        xme.estimate(cls.reference, cls.current, device="reference", range=12)
        per_candidate = (time.monotonic() - started) / candidates(12)
        # The range whose uncut call takes about LONG seconds.
        cls.range = 12
        while candidates(cls.range) * per_candidate < LONG and cls.range < 4095:
            cls.range += 1
        cls.expected = candidates(cls.range) * per_candidate
        print(f"range {cls.range}: {cls.expected:.2f} s uncut, by the call at range 12", flush=True)

    def assert_interrupted_soon(self, call):
        timer = interrupt_after(SIGNAL_AFTER)
        started = time.monotonic()
        try:
            with self.assertRaises(KeyboardInterrupt):
                call()
        finally:
            timer.cancel()
        took = time.monotonic() - started
        print(f"{self.id()}: KeyboardInterrupt after {took:.2f} s of {self.expected:.2f} s", flush=True)
        self.assertGreaterEqual(took, SIGNAL_AFTER - 0.05)
        self.assertLess(took, SIGNAL_AFTER + ALLOWED)
        self.assertGreater(self.expected, 3 * (SIGNAL_AFTER + ALLOWED), "the uncut call is long")
        return took

    def test_estimate(self):
        self.assert_interrupted_soon(
            lambda: xme.estimate(self.reference, self.current, device="reference", range=self.range))
        # The module goes on working: the device finishes the dropped pair before it takes this one.
        field = xme.estimate(self.reference, self.current, device="reference", range=2)
        self.assertEqual(field.vectors.shape, (16, 16, 2))

    def test_compare(self):
        self.assert_interrupted_soon(
            lambda: xme.compare(self.reference, self.current, devices=["reference", "cpu"], range=self.range))

    def test_estimator(self):
        # Pairs of about a second each: finish() waits for several when the signal comes.
        per_pair = max(1, self.range // 2)
        estimator = xme.Estimator(device="reference", range=per_pair)

        def stream():
            for step in range(6):
                estimator.feed(numpy.roll(self.current, step, axis=1))
            estimator.finish()

        self.assert_interrupted_soon(stream)
        with self.assertRaises(ValueError) as caught:
            estimator.feed(self.current)
        self.assertIn("closed", str(caught.exception))
        estimator.close()

    def test_close_from_another_thread_makes_finish_raise(self):
        estimator = xme.Estimator(device="reference", range=max(1, self.range // 2))
        for step in range(3):
            estimator.feed(numpy.roll(self.current, step, axis=1))
        closer = threading.Timer(SIGNAL_AFTER, estimator.close)
        closer.start()
        with self.assertRaises(xme.InvalidArgument) as caught:
            estimator.finish()
        closer.join()
        self.assertIn("finish() on a closed Estimator", str(caught.exception))


if __name__ == "__main__":
    unittest.main()
