/** The types of eslint.config.js's named exports, for the harness tests that read them. */
/** The product's folders (the layering and the file and function limits apply to them). */
export declare const PRODUCT_FOLDERS: readonly string[];
declare const config: unknown;
export default config;
