// Whether the wasm instance is ready; each entry sets it once it has initialised the glue.
export const state = { ready: false };
