CREATE TABLE "project_versions" (
	"id" serial PRIMARY KEY NOT NULL,
	"project_id" integer NOT NULL,
	"number" integer NOT NULL,
	"name" text NOT NULL,
	"notes" text DEFAULT '' NOT NULL,
	"boards" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"bom_attachment_id" text,
	"bom_status" text DEFAULT 'none' NOT NULL,
	"bom_source" text,
	"bom_lines" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "version_files" (
	"id" text PRIMARY KEY NOT NULL,
	"version_id" integer NOT NULL,
	"attachment_id" text,
	"name" text NOT NULL,
	"mime" text NOT NULL,
	"size" integer NOT NULL,
	"kind" text DEFAULT 'other' NOT NULL,
	"storage_key" text NOT NULL,
	"sort" integer DEFAULT 0 NOT NULL,
	"download_count" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
ALTER TABLE "boards" ADD COLUMN "retired_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "project_versions" ADD CONSTRAINT "project_versions_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "version_files" ADD CONSTRAINT "version_files_version_id_project_versions_id_fk" FOREIGN KEY ("version_id") REFERENCES "public"."project_versions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "project_versions_number_idx" ON "project_versions" USING btree ("project_id","number");--> statement-breakpoint
CREATE UNIQUE INDEX "project_versions_name_idx" ON "project_versions" USING btree ("project_id",lower("name"));--> statement-breakpoint
CREATE INDEX "version_files_version_idx" ON "version_files" USING btree ("version_id","sort");