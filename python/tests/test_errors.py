"""The Python module's errors: xme's own messages, as exceptions of xme.Error's classes; the devices.

Run by CTest (`ctest -R python`), or from the build tree:
    PYTHONPATH=build/ci/python python3 python/tests/test_errors.py
"""
import unittest

from support import numpy, rng, xme


class Errors(unittest.TestCase):
    def setUp(self):
        generator = rng(self.id())
        self.frame = generator.integers(0, 256, size=(32, 48), dtype=numpy.uint8)

    def assert_error(self, kind, text, call):
        with self.assertRaises(kind) as caught:
            call()
        self.assertIn(text, str(caught.exception))
        self.assertIsInstance(caught.exception, xme.Error)
        return caught.exception

    def test_bad_sizes(self):
        error = self.assert_error(xme.InvalidArgument, "a pair's frames must be of one size",
                                  lambda: xme.estimate(self.frame, self.frame[:, :40]))
        self.assertEqual((error.kind, error.exit_code), ("invalid_argument", 2))
        self.assertIsInstance(error, ValueError)
        self.assert_error(xme.InvalidArgument, "3 dimensions",
                          lambda: xme.estimate(self.frame[..., None], self.frame[..., None]))
        self.assert_error(xme.InvalidArgument, "is 48x0",
                          lambda: xme.estimate(self.frame[:0], self.frame[:0]))
        self.assert_error(xme.InvalidArgument, "float64 samples",
                          lambda: xme.estimate(self.frame / 2, self.frame / 2))
        self.assert_error(xme.InvalidArgument, "is a list", lambda: xme.estimate([[1]], [[1]]))
        estimator = xme.Estimator(device="cpu")
        estimator.feed(self.frame)
        self.assert_error(xme.InvalidArgument, "but the stream's frames are 48x32",
                          lambda: estimator.feed(self.frame[:16]))
        estimator.close()

    def test_bad_options(self):
        self.assert_error(xme.InvalidArgument, "unknown option 'blok'",
                          lambda: xme.estimate(self.frame, self.frame, blok=8))
        self.assert_error(xme.InvalidArgument, "block", lambda: xme.estimate(self.frame, self.frame, block=5))
        self.assert_error(xme.InvalidArgument, "not both",
                          lambda: xme.estimate(self.frame, self.frame, algo="fs", subpel="hpel"))
        self.assert_error(xme.InvalidArgument, "is a float",
                          lambda: xme.estimate(self.frame, self.frame, range=2.5))

    def test_numbers_out_of_range_name_the_range(self):
        """Every numeric keyword is checked as the CLI's option is: the message names the range."""
        generator = rng(self.id())
        cases = {"range": (0, 4095), "lambda_": (0, 65535), "qp": (0, 51), "refresh": (0, 2**31 - 1),
                 "threads": (0, 1024)}
        for key, (low, high) in cases.items():
            for value in (high + int(generator.integers(1, 2**40)), low - int(generator.integers(1, 2**40)),
                          2**int(generator.integers(64, 200))):
                with self.subTest(key=key, value=value):
                    self.assert_error(xme.InvalidArgument, f"{key}={value} is not in {low}..{high}",
                                      lambda: xme.estimate(self.frame, self.frame, **{key: value}))
        self.assert_error(xme.InvalidArgument, "block=True is a bool: give an int among 4, 8, 16 and 32",
                          lambda: xme.estimate(self.frame, self.frame, block=True))
        self.assert_error(xme.InvalidArgument, "range='8' is a str: give an int in 0..4095",
                          lambda: xme.Estimator(range="8"))
        block = int(generator.choice([5, 6, 7, 12, 24, 31]))
        self.assert_error(xme.InvalidArgument, f"block={block} is not among 4, 8, 16 and 32",
                          lambda: xme.compare(self.frame, self.frame, block=block))
        # numpy's integers are ints.
        field = xme.estimate(self.frame, self.frame, device="cpu", block=numpy.int16(8), range=numpy.uint8(2))
        self.assertEqual(field.block_size, 8)

    def test_a_closed_estimator_raises_on_use(self):
        estimator = xme.Estimator(device="cpu", range=2)
        estimator.feed(self.frame)
        estimator.close()
        self.assert_error(xme.InvalidArgument, "feed() on a closed Estimator", lambda: estimator.feed(self.frame))
        self.assert_error(xme.InvalidArgument, "finish() on a closed Estimator", estimator.finish)
        with xme.Estimator(device="cpu") as estimator:
            estimator.feed(self.frame)
        self.assert_error(xme.InvalidArgument, "closed", estimator.finish)
        finished = xme.Estimator(device="cpu")
        finished.feed(self.frame)
        finished.finish()
        self.assertEqual(finished.finish(), [])  # finishing twice is not closing

    def test_unknown_device(self):
        self.assert_error(xme.InvalidArgument, "unknown device 'gpu7'",
                          lambda: xme.estimate(self.frame, self.frame, device="gpu7"))
        self.assert_error(xme.InvalidArgument, "unknown device 'gpu7'",
                          lambda: xme.Estimator(device="gpu7").feed(self.frame))
        self.assert_error(xme.InvalidArgument, "unknown device 'gpu7'",
                          lambda: xme.compare(self.frame, self.frame, devices=["cpu", "gpu7"]))
        self.assert_error(xme.InvalidArgument, "listed twice",
                          lambda: xme.compare(self.frame, self.frame, devices=["cpu", "cpu"]))

    def test_unsupported_chain(self):
        self.assert_error(xme.InvalidArgument, "partitions",
                          lambda: xme.estimate(self.frame, self.frame, algo="fs+p41", block=8))
        vulkan = [d for d in xme.devices() if d["backend"] == "vulkan" and d["available"]]
        if not vulkan:
            self.skipTest("no Vulkan device here: the refusal of a chain a device lacks is not checked")
        name = vulkan[0]["name"]
        # The 41 partitions' 32-bit keys cannot hold this range with this lambda and a predictor on the
        # GPUs; the CPU backend runs it.
        refusal = "cannot hold range 32 with lambda 60000"
        chain = {"algo": "fs+p41", "range": 32, "lambda_": 60000, "predictor": "temporal"}
        self.assert_error(xme.Unsupported, refusal,
                          lambda: xme.estimate(self.frame, self.frame, device=name, **chain))
        self.assert_error(xme.Unsupported, refusal,
                          lambda: xme.Estimator(device=name, **chain).feed(self.frame))
        self.assert_error(xme.Unsupported, refusal,
                          lambda: xme.compare(self.frame, self.frame, devices=["cpu", name], **chain))

    def test_missing_video(self):
        self.assert_error(xme.BadInput, "no-such-file.y4m", lambda: xme.open_video("/nonexistent/no-such-file.y4m"))


class Devices(unittest.TestCase):
    def test_every_backend_is_listed_with_a_reason_when_absent(self):
        devices = xme.devices()
        by_name = {device["name"]: device for device in devices}
        self.assertTrue(by_name["cpu"]["available"])
        self.assertIn("portable", by_name["cpu"]["variants"])
        self.assertIn("reference", by_name)
        self.assertEqual(sum(device["default"] for device in devices), 1)
        for device in devices:
            if not device["available"]:
                self.assertTrue(device["reason"], f"{device['name']} is unavailable without a reason")
        self.assertTrue({"cpu", "cuda", "vulkan"} <= {device["backend"] for device in devices})

class Metadata(unittest.TestCase):
    def test_version_and_licence(self):
        self.assertRegex(xme.__version__, r"^\d+\.\d+\.\d+$")
        self.assertEqual(xme.__license__, "Apache-2.0")


if __name__ == "__main__":
    unittest.main()
