CREATE TABLE "api_keys" (
	"id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"salt" text NOT NULL,
	"hash" text NOT NULL,
	"admin" boolean DEFAULT false NOT NULL,
	"runs_per_day" integer DEFAULT 50 NOT NULL,
	"items_per_day" integer DEFAULT 200000 NOT NULL,
	"rate_per_sec" real DEFAULT 20 NOT NULL,
	"burst" integer DEFAULT 40 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"revoked_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "datasets" (
	"name" text PRIMARY KEY NOT NULL,
	"task" text NOT NULL,
	"path" text NOT NULL,
	"item_count" integer NOT NULL,
	"sha256" text NOT NULL,
	"public" boolean DEFAULT true NOT NULL,
	"registered_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "leaderboard" (
	"run_id" text PRIMARY KEY NOT NULL,
	"dataset" text NOT NULL,
	"task" text NOT NULL,
	"model" text NOT NULL,
	"metrics" jsonb NOT NULL,
	"n" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "results" (
	"run_id" text NOT NULL,
	"item_id" text NOT NULL,
	"outcome" text NOT NULL,
	"scores" jsonb NOT NULL,
	"answer" text,
	"data" jsonb NOT NULL,
	"log" text,
	"error" text,
	"duration_ms" real DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "results_run_id_item_id_pk" PRIMARY KEY("run_id","item_id")
);
--> statement-breakpoint
CREATE TABLE "runs" (
	"id" text PRIMARY KEY NOT NULL,
	"key_id" text,
	"dataset" text NOT NULL,
	"task" text NOT NULL,
	"kind" text NOT NULL,
	"model" text NOT NULL,
	"status" text NOT NULL,
	"total" integer NOT NULL,
	"done" integer DEFAULT 0 NOT NULL,
	"idempotency_key" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone,
	"report" jsonb,
	"error" text
);
--> statement-breakpoint
CREATE TABLE "submissions" (
	"run_id" text PRIMARY KEY NOT NULL,
	"sha256" text NOT NULL,
	"bytes" integer NOT NULL,
	"predictions" jsonb NOT NULL
);
--> statement-breakpoint
ALTER TABLE "leaderboard" ADD CONSTRAINT "leaderboard_run_id_runs_id_fk" FOREIGN KEY ("run_id") REFERENCES "public"."runs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "results" ADD CONSTRAINT "results_run_id_runs_id_fk" FOREIGN KEY ("run_id") REFERENCES "public"."runs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "runs" ADD CONSTRAINT "runs_key_id_api_keys_id_fk" FOREIGN KEY ("key_id") REFERENCES "public"."api_keys"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "submissions" ADD CONSTRAINT "submissions_run_id_runs_id_fk" FOREIGN KEY ("run_id") REFERENCES "public"."runs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "leaderboard_dataset_task" ON "leaderboard" USING btree ("dataset","task");--> statement-breakpoint
CREATE INDEX "results_outcome" ON "results" USING btree ("run_id","outcome");--> statement-breakpoint
CREATE UNIQUE INDEX "runs_key_idempotency" ON "runs" USING btree ("key_id","idempotency_key");--> statement-breakpoint
CREATE INDEX "runs_created" ON "runs" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "runs_key_created" ON "runs" USING btree ("key_id","created_at");