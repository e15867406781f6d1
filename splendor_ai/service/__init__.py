"""The gRPC service (docs/protocol.md): ``splendor-ai serve``.

- ``convert``: the wire <-> the domain, and all validation of requests
- ``errors``: exceptions -> gRPC status codes, in one place
- ``servicer``: the RPC handlers (thin)
- ``engine``: the searches behind GetMove and Analyze, stoppable from another thread
- ``slots``: the limit on concurrent searches
- ``settings``: the server's settings (flags and environment variables)
- ``server``: start, health, reflection, SIGTERM
- ``web``: the same servicer to browsers on ``--http-port`` (Connect, gRPC-Web, CORS), and the
  demo page in ``static/`` (docs/web.md)
"""
