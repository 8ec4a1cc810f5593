/** The shape of a flow's generated pre-flight validator (an ajv standalone validate function). */
export interface RequestValidator {
  (data: unknown): boolean;
  errors?: readonly { instancePath: string; keyword: string; message?: string; params: object }[] | null;
}
