CREATE TABLE "video_uploads" (
	"token_hash" text PRIMARY KEY NOT NULL,
	"owner_id" integer NOT NULL,
	"name" text NOT NULL,
	"size" bigint NOT NULL,
	"mime" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"tus_id" text,
	"finished_at" timestamp with time zone,
	"video_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "video_uploads_tus_id_unique" UNIQUE("tus_id")
);
--> statement-breakpoint
CREATE TABLE "settings" (
	"key" text PRIMARY KEY NOT NULL,
	"value" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "videos" ALTER COLUMN "storage_key" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "videos" ADD COLUMN "upload_id" text;--> statement-breakpoint
ALTER TABLE "videos" ADD COLUMN "width" integer;--> statement-breakpoint
ALTER TABLE "videos" ADD COLUMN "height" integer;--> statement-breakpoint
ALTER TABLE "videos" ADD COLUMN "error_key" text;--> statement-breakpoint
ALTER TABLE "videos" ADD COLUMN "attempts" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "videos" ADD COLUMN "updated_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
ALTER TABLE "video_uploads" ADD CONSTRAINT "video_uploads_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "video_uploads_owner_idx" ON "video_uploads" USING btree ("owner_id","created_at");