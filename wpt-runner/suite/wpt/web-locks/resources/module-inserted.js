// Inserted by inserted-scripts.https.window.js as a module script.
import { PROTOCOL_VERSION } from './module-inserted-dep.js';
window.insertedLog.push(PROTOCOL_VERSION + ' ' + import.meta.url);
