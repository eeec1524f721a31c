/** The OpenAPI 3.x objects as the document reader (import/) and the comparison of two documents (diff/) read them. */

export type Schema = Record<string, unknown>;
export type MediaObject = { schema?: Schema; example?: unknown; examples?: Record<string, { value?: unknown }> };
export type ParameterObject = { name: string; in: string; required?: boolean; schema?: Schema; example?: unknown };
export type OperationObject = {
  parameters?: ParameterObject[];
  requestBody?: { required?: boolean; content?: Record<string, MediaObject> };
  responses?: Record<string, { content?: Record<string, MediaObject> }>;
};
