CREATE TABLE "key_usage" (
	"key_id" text NOT NULL,
	"day" text NOT NULL,
	"runs" integer DEFAULT 0 NOT NULL,
	"run_items" integer DEFAULT 0 NOT NULL,
	"score_items" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "key_usage_key_id_day_pk" PRIMARY KEY("key_id","day")
);
--> statement-breakpoint
CREATE TABLE "models" (
	"name" text PRIMARY KEY NOT NULL,
	"owner_key_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "run_deletions" (
	"run_id" text PRIMARY KEY NOT NULL,
	"key_id" text,
	"status" text NOT NULL,
	"jobs_cancelled" integer DEFAULT 0 NOT NULL,
	"deleted_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "key_usage" ADD CONSTRAINT "key_usage_key_id_api_keys_id_fk" FOREIGN KEY ("key_id") REFERENCES "public"."api_keys"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "models" ADD CONSTRAINT "models_owner_key_id_api_keys_id_fk" FOREIGN KEY ("owner_key_id") REFERENCES "public"."api_keys"("id") ON DELETE set null ON UPDATE no action;