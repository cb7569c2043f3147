/** The AWS SDK's S3 client module, loaded on demand. */
export type S3Sdk = typeof import('@aws-sdk/client-s3');
/** The SDK's pre-signer module, loaded on demand. */
export type S3Presigner = typeof import('@aws-sdk/s3-request-presigner');

let sdk: Promise<S3Sdk> | undefined;
let presigner: Promise<S3Presigner> | undefined;

/**
 * The S3 client module, imported the first time S3 storage is opened: it is a large module tree
 * (about a hundred files), which an installation on local disk never loads.
 */
export function loadS3Sdk(): Promise<S3Sdk> {
  quietNodeVersionWarning();
  sdk ??= import('@aws-sdk/client-s3');
  return sdk;
}

/** The pre-signer, imported the first time a pre-signed URL is made. */
export function loadS3Presigner(): Promise<S3Presigner> {
  presigner ??= import('@aws-sdk/s3-request-presigner');
  return presigner;
}

/**
 * The SDK warns once per process, when its first client is made on Node 20, that its releases
 * after January 2027 need Node 22 (a NodeVersionSupportWarning on stderr, through
 * process.emitWarning). On a `docpipe start` that line reads as a fault of the deployment, and
 * docpipe's own Node requirement is stated in package.json's engines and the README, so it is
 * turned off the way the SDK documents (aws/aws-sdk-js-v3#7983):
 * AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED=true, read when a client is made. An operator
 * who sets the variable to anything else keeps the warning.
 */
function quietNodeVersionWarning(): void {
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
}
