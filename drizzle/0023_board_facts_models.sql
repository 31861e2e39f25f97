ALTER TABLE "boards" ADD COLUMN "facts" jsonb;--> statement-breakpoint
ALTER TABLE "boards" ADD COLUMN "model_key" text;--> statement-breakpoint
ALTER TABLE "boards" ADD COLUMN "model_raw_bytes" integer;--> statement-breakpoint
ALTER TABLE "boards" ADD COLUMN "model_bytes" integer;