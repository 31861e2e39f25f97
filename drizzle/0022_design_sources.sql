CREATE TABLE "design_sources" (
	"id" serial PRIMARY KEY NOT NULL,
	"project_id" integer NOT NULL,
	"sources" jsonb NOT NULL,
	"name" text NOT NULL,
	"status" text DEFAULT 'queued' NOT NULL,
	"error_key" text,
	"kicad_version" text,
	"attempts" integer DEFAULT 0 NOT NULL,
	"sheets" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"symbols" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"bom_lines" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"bom_columns" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"placements" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"drc" jsonb,
	"erc" jsonb,
	"render_top_key" text,
	"render_bottom_key" text,
	"render_jpeg_key" text,
	"gerber_zip_key" text,
	"problems" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"process_ms" integer,
	"retired_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "boards" ADD COLUMN "design_source_id" integer;--> statement-breakpoint
ALTER TABLE "boards" ADD COLUMN "source_zip_key" text;--> statement-breakpoint
ALTER TABLE "bom_lines" ADD COLUMN "dnp" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "eda_documents" ADD COLUMN "design_source_id" integer;--> statement-breakpoint
ALTER TABLE "project_versions" ADD COLUMN "design_source_id" integer;--> statement-breakpoint
ALTER TABLE "design_sources" ADD CONSTRAINT "design_sources_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "design_sources_project_idx" ON "design_sources" USING btree ("project_id","id");--> statement-breakpoint
ALTER TABLE "boards" ADD CONSTRAINT "boards_design_source_id_design_sources_id_fk" FOREIGN KEY ("design_source_id") REFERENCES "public"."design_sources"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- KiCad design files attached before sources were read: `npm run kicad:process` plans and reads them.
UPDATE "attachments" SET "kind" = 'kicad' WHERE lower("name") ~ '\.(kicad_pro|kicad_pcb|kicad_sch)$';
