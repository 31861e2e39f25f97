CREATE TABLE "email_preferences" (
	"user_id" integer PRIMARY KEY NOT NULL,
	"comments" text DEFAULT 'daily' NOT NULL,
	"replies" text DEFAULT 'daily' NOT NULL,
	"stars" text DEFAULT 'daily' NOT NULL,
	"last_digest_on" date,
	"last_digest_at" timestamp with time zone,
	CONSTRAINT "email_preferences_comments_check" CHECK ("email_preferences"."comments" IN ('daily', 'never')),
	CONSTRAINT "email_preferences_replies_check" CHECK ("email_preferences"."replies" IN ('daily', 'never')),
	CONSTRAINT "email_preferences_stars_check" CHECK ("email_preferences"."stars" IN ('daily', 'never'))
);
--> statement-breakpoint
CREATE TABLE "email_tokens" (
	"id" serial PRIMARY KEY NOT NULL,
	"purpose" text NOT NULL,
	"token_hash" text NOT NULL,
	"user_id" integer NOT NULL,
	"new_email" text,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "email_tokens_purpose_check" CHECK ("email_tokens"."purpose" IN ('verify', 'reset', 'change_email'))
);
--> statement-breakpoint
ALTER TABLE "credentials" ADD COLUMN "email_verified" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "locale" text DEFAULT 'en-US' NOT NULL;--> statement-breakpoint
ALTER TABLE "email_preferences" ADD CONSTRAINT "email_preferences_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "email_tokens" ADD CONSTRAINT "email_tokens_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "email_tokens_hash_key" ON "email_tokens" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "email_tokens_user_idx" ON "email_tokens" USING btree ("user_id","purpose");