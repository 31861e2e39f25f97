ALTER TABLE "eda_documents" DROP CONSTRAINT "eda_documents_placement_attachment_id_attachments_id_fk";
--> statement-breakpoint
ALTER TABLE "eda_documents" ADD COLUMN "placement_attachment_ids" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "eda_documents" ADD COLUMN "placement_errors" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
-- Every placement file of a project is read now, not only the first: projects with any are read again.
UPDATE "eda_documents" AS d SET
	"placement_attachment_ids" = (SELECT jsonb_agg(a."id" ORDER BY a."sort") FROM "attachments" AS a WHERE a."project_id" = d."project_id" AND a."kind" = 'placement'),
	"status" = 'queued',
	"updated_at" = now()
WHERE EXISTS (SELECT 1 FROM "attachments" AS a WHERE a."project_id" = d."project_id" AND a."kind" = 'placement');--> statement-breakpoint
ALTER TABLE "eda_documents" DROP COLUMN "placement_attachment_id";