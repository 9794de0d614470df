# The bundled suite's slow body. wpt-runner serves this path with a Go
# handler (wpt-runner/server/handlers.go, serveHoldBody) that sends the
# headers and part of the body, then holds the rest until released; this
# file only marks the path as served (the runner runs no Python). Under
# wptserve it answers 501.


def main(request, response):
    return 501, [], "hold-body.py is implemented by wpt-runner only"
