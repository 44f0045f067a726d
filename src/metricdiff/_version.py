"""metricdiff's version, in a module of its own so that any module can name it
without importing the package's face (``metricdiff/__init__.py``), which sits
above everything."""

__version__ = "0.1.0"
