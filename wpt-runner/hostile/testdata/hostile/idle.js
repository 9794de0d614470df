// A worker that does nothing.
