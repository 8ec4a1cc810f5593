/** Parses a multipart request on the test server with busboy, as a real service would. */
import busboy from "busboy";
import type { IncomingMessage } from "node:http";

interface ReceivedPart {
  readonly name: string;
  /** Text value, or undefined for a file. */
  readonly value?: string;
  readonly filename?: string;
  readonly mimeType?: string;
  readonly bytes?: Buffer;
}

export interface ReceivedForm {
  readonly parts: ReceivedPart[];
  readonly contentType: string | undefined;
  readonly contentLength: number;
  readonly bytesReceived: number;
}

export function parseMultipart(req: IncomingMessage): Promise<ReceivedForm> {
  return new Promise((resolve, reject) => {
    const parts: ReceivedPart[] = [];
    let bytesReceived = 0;
    req.on("data", (chunk: Buffer) => (bytesReceived += chunk.length));
    const parser = busboy({ headers: req.headers, limits: { fileSize: Infinity, files: Infinity, fields: Infinity } });
    parser.on("field", (name, value) => parts.push({ name, value }));
    parser.on("file", (name, stream, info) => {
      const chunks: Buffer[] = [];
      const part: ReceivedPart & { bytes: Buffer } = {
        name,
        filename: info.filename,
        mimeType: info.mimeType,
        bytes: Buffer.alloc(0),
      };
      parts.push(part);
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("end", () => (part.bytes = Buffer.concat(chunks)));
    });
    parser.on("close", () => {
      resolve({
        parts,
        contentType: req.headers["content-type"],
        contentLength: Number(req.headers["content-length"]),
        bytesReceived,
      });
    });
    parser.on("error", reject);
    req.pipe(parser);
  });
}

/** The text value of the part named `name`, when the form has one. */
export function partValue(form: ReceivedForm, name: string): string | undefined {
  return form.parts.find((part) => part.name === name)?.value;
}
