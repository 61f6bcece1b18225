"""Generated protocol modules (``python proto/generate.py``); do not edit by hand.

``sdk.protocol.v1`` is the lifecycle service every bot serves;
``sdk.protocol.saint_malo.v1`` is Saint Malo's decision service.
"""

PROTOCOL_VERSION = 1
