CREATE TABLE "project_logs" (
	"id" serial PRIMARY KEY NOT NULL,
	"project_id" integer NOT NULL,
	"n" integer NOT NULL,
	"author_id" integer NOT NULL,
	"title" text NOT NULL,
	"body" text NOT NULL,
	"body_html" text NOT NULL,
	"body_text" text DEFAULT '' NOT NULL,
	"comment_count" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone,
	"hidden_at" timestamp with time zone,
	"hidden_by" integer
);
--> statement-breakpoint
ALTER TABLE "comments" ADD COLUMN "log_id" integer;--> statement-breakpoint
ALTER TABLE "project_logs" ADD CONSTRAINT "project_logs_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "project_logs" ADD CONSTRAINT "project_logs_author_id_users_id_fk" FOREIGN KEY ("author_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "project_logs" ADD CONSTRAINT "project_logs_hidden_by_users_id_fk" FOREIGN KEY ("hidden_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "project_logs_project_n_key" ON "project_logs" USING btree ("project_id","n");--> statement-breakpoint
CREATE INDEX "project_logs_project_created_idx" ON "project_logs" USING btree ("project_id","created_at" DESC NULLS FIRST);--> statement-breakpoint
ALTER TABLE "comments" ADD CONSTRAINT "comments_log_id_project_logs_id_fk" FOREIGN KEY ("log_id") REFERENCES "public"."project_logs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "comments_log_idx" ON "comments" USING btree ("log_id","parent_id","created_at");