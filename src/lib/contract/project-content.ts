/**
 * The content of a project as the creation form edits it and `release/saveProject` takes it;
 * drafts and previews store exactly this. Shared by the server and the form's store.
 */
export interface ProjectContent {
  title: string;
  summary: string;
  description: string;
  cover: string | null;
  tags: string[];
  licence: string;
  /** Upload ids of the attached files, in their order. */
  attachments: string[];
}
