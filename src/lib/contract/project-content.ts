/**
 * The content of a project as the creation form edits it and `release/saveProject` takes it;
 * drafts and previews store exactly this. Shared by the server and the form's store.
 */
import type { z } from 'zod';
import type { projectContentSchema } from './schemas/projects.ts';

export type ProjectContent = z.infer<typeof projectContentSchema>;
