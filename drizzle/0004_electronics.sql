CREATE TABLE "boards" (
	"id" serial PRIMARY KEY NOT NULL,
	"project_id" integer NOT NULL,
	"sources" jsonb NOT NULL,
	"name" text NOT NULL,
	"status" text DEFAULT 'queued' NOT NULL,
	"error_key" text,
	"error_file" text,
	"attempts" integer DEFAULT 0 NOT NULL,
	"tool" text,
	"width_mm" real,
	"height_mm" real,
	"layer_count" integer,
	"view_box_mm" jsonb,
	"layers" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"top_key" text,
	"bottom_key" text,
	"preview_key" text,
	"render_ms" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "bom_lines" (
	"project_id" integer NOT NULL,
	"line_no" integer NOT NULL,
	"designators" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"quantity" integer DEFAULT 1 NOT NULL,
	"value" text DEFAULT '' NOT NULL,
	"footprint" text DEFAULT '' NOT NULL,
	"manufacturer" text DEFAULT '' NOT NULL,
	"mpn" text DEFAULT '' NOT NULL,
	"lcsc" text DEFAULT '' NOT NULL,
	"mouser" text DEFAULT '' NOT NULL,
	"digikey" text DEFAULT '' NOT NULL,
	"farnell" text DEFAULT '' NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	CONSTRAINT "bom_lines_project_id_line_no_pk" PRIMARY KEY("project_id","line_no")
);
--> statement-breakpoint
CREATE TABLE "eda_documents" (
	"project_id" integer PRIMARY KEY NOT NULL,
	"status" text DEFAULT 'queued' NOT NULL,
	"bom_attachment_id" text,
	"bom_columns" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"bom_error_key" text,
	"bom_found_columns" jsonb,
	"placement_attachment_id" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "placements" (
	"project_id" integer NOT NULL,
	"designator" text NOT NULL,
	"x" double precision NOT NULL,
	"y" double precision NOT NULL,
	"rotation" real DEFAULT 0 NOT NULL,
	"side" text DEFAULT 'top' NOT NULL,
	CONSTRAINT "placements_project_id_designator_pk" PRIMARY KEY("project_id","designator")
);
--> statement-breakpoint
ALTER TABLE "boards" ADD CONSTRAINT "boards_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bom_lines" ADD CONSTRAINT "bom_lines_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "eda_documents" ADD CONSTRAINT "eda_documents_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "eda_documents" ADD CONSTRAINT "eda_documents_bom_attachment_id_attachments_id_fk" FOREIGN KEY ("bom_attachment_id") REFERENCES "public"."attachments"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "eda_documents" ADD CONSTRAINT "eda_documents_placement_attachment_id_attachments_id_fk" FOREIGN KEY ("placement_attachment_id") REFERENCES "public"."attachments"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "placements" ADD CONSTRAINT "placements_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "boards_project_idx" ON "boards" USING btree ("project_id","id");