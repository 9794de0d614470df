// The page's side of resources/lock-worker.js (a LockClient over the
// Worker; needs resources/lock-client.js).
'use strict';

class LockWorker extends LockClient {
  constructor(t) {
    super(new Worker('resources/lock-worker.js'));
    this.worker = this.endpoint;
    if (t) {
      t.add_cleanup(() => this.worker.terminate());
    }
  }

  terminate() {
    this.worker.terminate();
  }
}
