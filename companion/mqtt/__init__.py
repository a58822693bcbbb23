"""MQTT adapters beside the API: Home Assistant (:mod:`.home`) and remote play.

Off unless the config file has an ``[mqtt]`` or ``[remote]`` section with a ``host``
(:mod:`.settings`); the client library (aiomqtt, the ``[mqtt]`` extra) is imported only
then. Each adapter calls the table as the API does and is driven by its change
notifications: no thread polls.
"""
