CREATE TABLE "member_collection_projects" (
	"collection_id" integer NOT NULL,
	"project_id" integer NOT NULL,
	"position" integer NOT NULL,
	"added_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "member_collection_projects_collection_id_project_id_pk" PRIMARY KEY("collection_id","project_id")
);
--> statement-breakpoint
CREATE TABLE "member_collections" (
	"id" serial PRIMARY KEY NOT NULL,
	"owner_id" integer NOT NULL,
	"slug" text NOT NULL,
	"title" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"is_public" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "member_collection_projects" ADD CONSTRAINT "member_collection_projects_collection_id_member_collections_id_fk" FOREIGN KEY ("collection_id") REFERENCES "public"."member_collections"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "member_collection_projects" ADD CONSTRAINT "member_collection_projects_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "member_collections" ADD CONSTRAINT "member_collections_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "member_collection_projects_position_idx" ON "member_collection_projects" USING btree ("collection_id","position");--> statement-breakpoint
CREATE INDEX "member_collection_projects_project_idx" ON "member_collection_projects" USING btree ("project_id");--> statement-breakpoint
CREATE UNIQUE INDEX "member_collections_owner_slug_key" ON "member_collections" USING btree ("owner_id","slug");--> statement-breakpoint
CREATE INDEX "member_collections_owner_idx" ON "member_collections" USING btree ("owner_id","updated_at" DESC NULLS LAST);