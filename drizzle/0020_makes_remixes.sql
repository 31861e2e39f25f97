CREATE TABLE "make_images" (
	"make_id" integer NOT NULL,
	"upload_id" text NOT NULL,
	"sort" integer NOT NULL,
	CONSTRAINT "make_images_make_id_sort_pk" PRIMARY KEY("make_id","sort")
);
--> statement-breakpoint
CREATE TABLE "makes" (
	"id" serial PRIMARY KEY NOT NULL,
	"project_id" integer NOT NULL,
	"maker_id" integer NOT NULL,
	"body" text NOT NULL,
	"link" text,
	"link_project_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "projects" ADD COLUMN "remix_of_id" integer;--> statement-breakpoint
ALTER TABLE "drafts" ADD COLUMN "remix_of_id" integer;--> statement-breakpoint
ALTER TABLE "make_images" ADD CONSTRAINT "make_images_make_id_makes_id_fk" FOREIGN KEY ("make_id") REFERENCES "public"."makes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "make_images" ADD CONSTRAINT "make_images_upload_id_uploads_id_fk" FOREIGN KEY ("upload_id") REFERENCES "public"."uploads"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "makes" ADD CONSTRAINT "makes_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "makes" ADD CONSTRAINT "makes_maker_id_users_id_fk" FOREIGN KEY ("maker_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "makes" ADD CONSTRAINT "makes_link_project_id_projects_id_fk" FOREIGN KEY ("link_project_id") REFERENCES "public"."projects"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "make_images_upload_key" ON "make_images" USING btree ("upload_id");--> statement-breakpoint
CREATE INDEX "makes_project_idx" ON "makes" USING btree ("project_id","created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "makes_maker_idx" ON "makes" USING btree ("maker_id","created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
ALTER TABLE "projects" ADD CONSTRAINT "projects_remix_of_id_projects_id_fk" FOREIGN KEY ("remix_of_id") REFERENCES "public"."projects"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "drafts" ADD CONSTRAINT "drafts_remix_of_id_projects_id_fk" FOREIGN KEY ("remix_of_id") REFERENCES "public"."projects"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "projects_remix_of_idx" ON "projects" USING btree ("remix_of_id","published_at" DESC NULLS FIRST) WHERE "projects"."remix_of_id" IS NOT NULL;