/**
 * The ids the API reference's request examples name. They have the shape of real ids but name
 * nothing: on a running site, put in ids of your own. The contract test
 * (`tests/http/api-contract.test.ts`) swaps each for the id of a fixture it creates, so every
 * example is also a request that is known to work.
 */
export const EXAMPLE_IDS = {
  project: 'k3v9q2m8x1pz',
  /** A member's custom URL (a demo member's). */
  user: 'lena-marsh',
  tag: 'esp32',
  comment: 4101,
  message: 5201,
  draft: 'd4r7f8t2q9wa',
  preview: 'p5r3v1e8w6ia',
  previewToken: 'pt-6b1f0c2e9a7d4e3f8a1b2c3d',
  video: 'v7d2e9o4x1qa',
  videoUploadToken: 'vu-2c9e7a1f4b8d6e3a0f5c1b9d',
  attachment: 'a1t2c3h4m5nt',
  /** A file a version was published with. */
  versionFile: 'v3f1l2e4x9qa',
  upload: 'u8p1l2o3a4dd',
  report: 6301,
  /** Another published project (staff examples move two projects about). */
  otherProject: 'r7c2n5b8w3ke',
  banner: 6301,
  collection: 'keyboards',
  /** A member's own collection (the example member's), by its slug. */
  memberCollection: 'favourite-boards',
  /** A make (`make/del`) and an image upload of the signed-in member no make uses yet (`make/submit`). */
  make: 7101,
  makeImage: 'm4k3i9m2g8ea',
  /** A tag the staff merge example merges away. */
  mergedTag: 'radio',
} as const;
