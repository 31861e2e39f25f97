CREATE TABLE "feed_entries" (
	"user_id" integer NOT NULL,
	"activity_id" integer NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "feed_entries_user_id_activity_id_pk" PRIMARY KEY("user_id","activity_id")
);
--> statement-breakpoint
CREATE TABLE "follows" (
	"follower_id" integer NOT NULL,
	"kind" text NOT NULL,
	"target_id" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "follows_follower_id_kind_target_id_pk" PRIMARY KEY("follower_id","kind","target_id"),
	CONSTRAINT "follows_kind_check" CHECK ("follows"."kind" IN ('user', 'project', 'tag'))
);
--> statement-breakpoint
ALTER TABLE "messages" ADD COLUMN "activity_id" integer;--> statement-breakpoint
ALTER TABLE "email_preferences" ADD COLUMN "likes" text DEFAULT 'never' NOT NULL;--> statement-breakpoint
ALTER TABLE "email_preferences" ADD COLUMN "follows" text DEFAULT 'never' NOT NULL;--> statement-breakpoint
ALTER TABLE "email_preferences" ADD COLUMN "makes" text DEFAULT 'never' NOT NULL;--> statement-breakpoint
ALTER TABLE "email_preferences" ADD COLUMN "logs" text DEFAULT 'never' NOT NULL;--> statement-breakpoint
ALTER TABLE "email_preferences" ADD COLUMN "site_off" text[] DEFAULT '{}'::text[] NOT NULL;--> statement-breakpoint
ALTER TABLE "feed_entries" ADD CONSTRAINT "feed_entries_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "feed_entries" ADD CONSTRAINT "feed_entries_activity_id_activities_id_fk" FOREIGN KEY ("activity_id") REFERENCES "public"."activities"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "follows" ADD CONSTRAINT "follows_follower_id_users_id_fk" FOREIGN KEY ("follower_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "feed_entries_user_idx" ON "feed_entries" USING btree ("user_id","created_at" DESC NULLS FIRST,"activity_id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "feed_entries_activity_idx" ON "feed_entries" USING btree ("activity_id");--> statement-breakpoint
CREATE INDEX "follows_target_idx" ON "follows" USING btree ("kind","target_id","follower_id");--> statement-breakpoint
ALTER TABLE "messages" ADD CONSTRAINT "messages_activity_id_activities_id_fk" FOREIGN KEY ("activity_id") REFERENCES "public"."activities"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "email_preferences" ADD CONSTRAINT "email_preferences_likes_check" CHECK ("email_preferences"."likes" IN ('daily', 'never'));--> statement-breakpoint
ALTER TABLE "email_preferences" ADD CONSTRAINT "email_preferences_follows_check" CHECK ("email_preferences"."follows" IN ('daily', 'never'));--> statement-breakpoint
ALTER TABLE "email_preferences" ADD CONSTRAINT "email_preferences_makes_check" CHECK ("email_preferences"."makes" IN ('daily', 'never'));--> statement-breakpoint
ALTER TABLE "email_preferences" ADD CONSTRAINT "email_preferences_logs_check" CHECK ("email_preferences"."logs" IN ('daily', 'never'));