import { htmlToText, renderMarkdown } from '../services/core/index.ts';
import { projectSearchText } from '../services/projects/index.ts';

export interface ProjectText {
  title: string;
  summary: string;
  /** The Markdown description. */
  markdown: string;
  /** Names of the project's tags, in both languages (repeats are dropped). */
  tagNames: string[];
}

/**
 * The stored text columns of a seeded project, as publishing writes them: the sanitized HTML of
 * the description, rendered once, and the plain text search reads (title, summary, description,
 * tag names). Seeded descriptions have no images, so no image sizes are looked up.
 */
export function projectTextColumns(project: ProjectText): { descriptionMd: string; descriptionHtml: string; searchText: string } {
  const descriptionHtml = renderMarkdown(project.markdown);
  const searchText = projectSearchText({ title: project.title, summary: project.summary, descriptionText: htmlToText(descriptionHtml), tagNames: project.tagNames });
  return { descriptionMd: project.markdown, descriptionHtml, searchText };
}
