import { DeleteObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { assertSafeKey } from './storage-keys.js';
import type { MediaStorage, S3Settings } from './storage.js';

/** Any S3-compatible store (AWS, MinIO, Garage, R2…); objects are public-read through `publicUrl`. */
export class S3Storage implements MediaStorage {
  readonly externalOrigin: string;
  readonly #client: S3Client;

  constructor(private readonly settings: S3Settings) {
    this.externalOrigin = new URL(settings.publicUrl).origin;
    this.#client = new S3Client({
      region: settings.region,
      forcePathStyle: settings.forcePathStyle,
      ...(settings.endpoint ? { endpoint: settings.endpoint } : {}),
      ...(settings.accessKeyId && settings.secretAccessKey
        ? {
            credentials: {
              accessKeyId: settings.accessKeyId,
              secretAccessKey: settings.secretAccessKey,
            },
          }
        : {}),
    });
  }

  async put(key: string, body: Buffer, contentType: string): Promise<void> {
    assertSafeKey(key);
    await this.#client.send(
      new PutObjectCommand({
        Bucket: this.settings.bucket,
        Key: key,
        Body: body,
        ContentType: contentType,
        CacheControl: 'public, max-age=31536000, immutable',
      }),
    );
  }

  async delete(key: string): Promise<void> {
    assertSafeKey(key);
    await this.#client.send(new DeleteObjectCommand({ Bucket: this.settings.bucket, Key: key }));
  }

  /** The bucket is made by its operator; nothing to ready. */
  prepare(): Promise<void> {
    return Promise.resolve();
  }

  url(key: string): string {
    return `${this.settings.publicUrl.replace(/\/+$/, '')}/${key}`;
  }

  close(): void {
    this.#client.destroy();
  }
}
