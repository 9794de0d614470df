// A module worker serving the protocol of module-lock-protocol.js; 'meta'
// also reports what importScripts() threw.
import {serve} from './module-lock-protocol.js';

let importScriptsError = 'none';
try {
  importScripts('helpers.js');
} catch (e) {
  importScriptsError = e.name;
}
serve(self, {workerURL: import.meta.url, importScriptsError});
