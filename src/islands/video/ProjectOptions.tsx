import { useTranslation } from 'react-i18next';

/** The options of a "link to a project" select: none, then the owner's published projects. */
export function ProjectOptions({ projects }: { projects: { id: string; title: string }[] }) {
  const { t } = useTranslation();
  return (
    <>
      <option value="">{t('video.upload.noProject')}</option>
      {projects.map((project) => (
        <option key={project.id} value={project.id}>
          {project.title}
        </option>
      ))}
    </>
  );
}
