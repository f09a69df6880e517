/** A Python exception raised by emulated Python code; tools turn it into `Error: <message>`. */
export class PyException extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ToolError";
  }
}
