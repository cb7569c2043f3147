/**
 * Where the embedded PostgreSQL's clusters go whose data folder the server's user cannot reach:
 * beside other services' data (FHS /var/lib), open to traverse, one folder per data folder.
 * Here rather than in platform/postgres, so that the configuration names its default without
 * loading the database driver (every CLI command reads the configuration).
 */
export const ROOT_CLUSTERS_DIR = '/var/lib/docpipe/postgres';
