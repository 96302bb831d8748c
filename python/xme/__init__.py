"""xme: block motion estimation on the CPU, CUDA and Vulkan devices, bit-exact with docs/SPEC.md's reference.

The functions and classes are the native module's (xme._xme, docs/python.md); xme.corpus runs a corpus of
videos on Dask (docs/corpus.md).
"""

from . import _xme

for _name in dir(_xme):
    if _name.startswith("__") and _name not in ("__version__", "__license__"):
        continue
    _value = getattr(_xme, _name)
    globals()[_name] = _value
    # Classes say they are xme's, as users name them (xme.Field, xme.InvalidArgument), and pickle so.
    if isinstance(_value, type) and _value.__module__ == "xme._xme":
        try:
            _value.__module__ = __name__
        except (AttributeError, TypeError):
            pass
del _name, _value
