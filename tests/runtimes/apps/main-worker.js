// The bundled page that runs the package in a Web Worker (off the main thread, as a search-heavy
// page would): the bundler builds the worker from `new Worker(new URL(…, import.meta.url))`, and
// resolves the package there under the conditions it gives workers.
const worker = new Worker(new URL("./worker.js", import.meta.url), { type: "module" });
worker.onmessage = ({ data }) => Object.assign(window, data);
worker.onerror = (e) => (window.failure = `worker error: ${e.message}`);
