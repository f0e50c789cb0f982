/**
 * Build-time stand-in for the MCP SDK's Ajv provider in the `codeseam` bundle (tsup.config.ts points the SDK
 * server's own import of it here). The SDK server imports Ajv statically only to construct a default
 * validator; codeseam always passes its own (see mcp-shell.ts), which loads Ajv with the tools, so `initialize`
 * does not wait for Ajv to load.
 */
export class AjvJsonSchemaValidator {
  constructor() {
    throw new Error('codeseam passes its own jsonSchemaValidator to the MCP server; the default Ajv provider is not bundled here')
  }
}
