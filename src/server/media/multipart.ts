import type { FastifyRequest } from 'fastify';
import { limits } from '../../shared/limits.js';
import { DomainError, Invalid } from '../errors.js';
import { isUnstorableText } from '../plugins/text-input.js';

export interface FormFile {
  field: string;
  body: Buffer;
}

export interface ReadForm {
  fields: Record<string, string>;
  files: FormFile[];
}

const tooLarge = (field: string) => {
  const message = `This file is larger than ${limits.upload.maxBytes / 1024 / 1024} MB.`;
  return new DomainError(413, 'payload_too_large', message, { [field]: message });
};

/**
 * Reads a multipart form with at most one file per allowed field, each within the upload limit. Files are
 * buffered (they go to the image pipeline whole) and the parser stops as soon as a limit is passed.
 */
export async function readForm(
  request: FastifyRequest,
  fileFields: readonly string[],
  options: { tooManyFiles?: () => DomainError } = {},
): Promise<ReadForm> {
  if (!request.isMultipart()) return { fields: {}, files: [] };
  const fields: Record<string, string> = {};
  const files: FormFile[] = [];
  let current = 'form';
  try {
    for await (const part of request.parts({
      limits: {
        fileSize: limits.upload.maxBytes,
        files: fileFields.length,
        fields: 40,
        // As large as a whole JSON body: 5,000 characters of emoji (4 bytes each and more) must fit.
        fieldSize: limits.jsonBodyBytes,
        parts: 50,
      },
    })) {
      current = part.fieldname;
      if (part.type === 'field') {
        if (typeof part.value === 'string') {
          if (isUnstorableText(part.value)) {
            throw new Invalid('Some text contains characters that are not allowed.', {
              [part.fieldname]: 'Remove the invalid characters (NUL or broken Unicode).',
            });
          }
          fields[part.fieldname] = part.value;
        }
        continue;
      }
      if (!fileFields.includes(part.fieldname)) {
        part.file.resume();
        if (options.tooManyFiles && files.length >= fileFields.length) throw options.tooManyFiles();
        throw new Invalid(`Unexpected file field "${part.fieldname}".`, {
          [part.fieldname]: 'This form does not take a file here.',
        });
      }
      if (files.some((file) => file.field === part.fieldname)) {
        part.file.resume();
        throw new Invalid('Send one file per image.', {
          [part.fieldname]: 'Choose one file only.',
        });
      }
      const body = await part.toBuffer();
      // An empty file input (nothing chosen) is sent as a part with no bytes and no name.
      if (body.length === 0 && !part.filename) continue;
      files.push({ field: part.fieldname, body });
    }
  } catch (error) {
    if (error instanceof DomainError) throw error;
    const code = (error as { code?: string }).code;
    switch (code) {
      case 'FST_REQ_FILE_TOO_LARGE':
        throw tooLarge(current);
      case 'FST_FILES_LIMIT':
        if (options.tooManyFiles) throw options.tooManyFiles();
        throw new Invalid('Send one file per image.', { [current]: 'Choose one file only.' });
      case 'FST_PARTS_LIMIT':
      case 'FST_FIELDS_LIMIT':
        throw new DomainError(413, 'payload_too_large', 'The form has too many fields.');
      case 'FST_PROTO_VIOLATION':
        throw new Invalid('The form has a field name that is not allowed.');
      case 'FST_MP_PREMATURE_CLOSE':
        throw new Invalid('The upload was interrupted. Please try again.');
      default:
        // Nothing here but parsing the client's bytes: a missing or wrong boundary, a truncated body, a
        // broken part header, or a client that went away. Nothing is stored until the form is whole.
        throw new DomainError(
          400,
          'bad_request',
          'The form could not be read: it is malformed or incomplete. Please try again.',
        );
    }
  }
  return { fields, files };
}
