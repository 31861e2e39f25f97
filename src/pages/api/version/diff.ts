import { defineEndpoint } from '../../../server/http/endpoint.ts';
import { diffVersions, versionDiffInputSchema } from '../../../server/services/projects/index.ts';
import { versionDiffSchema } from '../../../lib/contract/schemas/versions.ts';
import { EXAMPLE_IDS } from '../../../lib/contract/schemas/examples.ts';

export const { GET, POST, ALL, contract } = defineEndpoint({
  methods: ['GET', 'POST'],
  input: versionDiffInputSchema,
  result: versionDiffSchema,
  docs: { summary: 'What changed between two versions', description: '`from` and `to` name two versions of the project: by name (`v1.1`), or by number (`2`) when no version has that name. The BOM diff pairs lines by designators, then part number, then value and footprint; each board gives its size and layer count in both and, per layer, the two SVG renders and whether it was added, removed or changed.', tag: 'versions', session: 'optional', errors: ['project_not_found', 'version_not_found', 'same_version'], example: { id: EXAMPLE_IDS.project, from: 'v1', to: 'v1.1' } },
  handler: ({ input, user }) => diffVersions(input.id, user?.id ?? null, input.from, input.to),
});
