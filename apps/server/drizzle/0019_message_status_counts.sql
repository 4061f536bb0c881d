CREATE TABLE "message_status_counts" (
	"channel" text NOT NULL,
	"status" text NOT NULL,
	"n" bigint NOT NULL
);
