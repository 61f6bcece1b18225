"""Generated modules of the lifecycle protocol (``python -m sdk.protogen lifecycle``); do not edit.

``sdk.protocol.v1`` is the lifecycle service every bot serves. Each game's decision service is
generated into the ``protocol`` package of the game's own folder.
"""

PROTOCOL_VERSION = 1
