// What esbuild's `file` loader makes of a .wasm import: the URL of the copied file.
declare module "*.wasm" {
  const url: string;
  export default url;
}
