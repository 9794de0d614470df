# The bundled suite's request recorder. wpt-runner serves this path with a
# Go handler (wpt-runner/server/handlers.go, serveRecordRequest) that
# appends a JSON record of the request to the dispatcher.py stash queue
# ?uuid=; this file only marks the path as served (the runner runs no
# Python). Under wptserve it answers 501.


def main(request, response):
    return 501, [], "record-request.py is implemented by wpt-runner only"
